import { useEffect, useState } from "react";
import { useHydrated } from "~/hooks/use-hydrated";

const COPIED_FOR_MS = 2000;

/**
 * Copies a secret to the clipboard. It appears only once JavaScript runs; without it the text
 * beside it stays selectable (select-all on tap) and copies the usual way.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = window.setTimeout(() => setState("idle"), COPIED_FOR_MS);
    return () => window.clearTimeout(timer);
  }, [state]);
  if (!hydrated) return null;
  return (
    <>
      <button
        type="button"
        className="btn-outline btn-sm shrink-0"
        aria-label={label}
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span role="status" className="sr-only">
        {state === "copied"
          ? "Copied to the clipboard"
          : state === "failed"
            ? "Could not copy: select the text and copy it"
            : ""}
      </span>
    </>
  );
}
