// A loading ticket's photo made smaller on the phone before it waits in the outbox (decision
// 1220): about 1600 px on the long side, JPEG at quality 0.8, a few hundred KB where the camera
// gave several MB. Loaded only when a photo is chosen (a dynamic import), so New Delivery's first
// JavaScript does not carry it; the service worker keeps it with the page for use offline.

/** The long side a photo is brought down to: a ticket's print stays readable. */
export const PHOTO_LONG_SIDE = 1600;
export const PHOTO_QUALITY = 0.8;
/** What the server takes as stored (rules/images.server.ts, MAX_ATTACHMENT_BYTES). */
const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

/** The size a photo of `width` × `height` is drawn at: never larger than it was. */
export function scaledSize(width: number, height: number, longSide = PHOTO_LONG_SIDE) {
  const scale = Math.min(1, longSide / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const readAsDataUrl = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/**
 * `file` as a data URL the outbox can keep as text: scaled and re-encoded as JPEG when it is larger
 * than the long side or the server's limit, else as it is. A file the phone cannot read as an
 * image goes as it is, and the server says what is wrong with it.
 */
export async function scaledPhoto(file: File): Promise<string> {
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(file);
  } catch {
    return readAsDataUrl(file);
  }
  const size = scaledSize(image.width, image.height);
  if (size.width === image.width && file.size <= MAX_PHOTO_BYTES && /^image\/(jpeg|png|webp)$/.test(file.type)) {
    image.close();
    return readAsDataUrl(file);
  }
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext("2d")!.drawImage(image, 0, 0, size.width, size.height);
  image.close();
  return canvas.toDataURL("image/jpeg", PHOTO_QUALITY);
}
