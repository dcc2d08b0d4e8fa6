import { jsonError } from "~/utils/auth.server";

// Unknown /api paths answer JSON, never the HTML 404 page.
export const loader = () => jsonError(404, "Not found");
export const action = () => jsonError(404, "Not found");
