export type DirectoryFailure = { ok: false; status: 400 | 404 | 409; message: string; fieldErrors?: Record<string, string[]> };
