import { useEffect, useState } from "react";

/**
 * False on the server and during hydration, true once the page's JavaScript runs. Controls that
 * only work with JavaScript (copy, select-all counts, WebAuthn) render after it; the rest of a
 * page must work without it.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
