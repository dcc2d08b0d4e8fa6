import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { XIcon } from "./icons";

/**
 * A dialog that is a route: the same markup works as a page without JavaScript (close is a
 * link) and as a modal with it (Escape closes, focus moves inside).
 */
export function Dialog({
  title,
  description,
  closeTo,
  children,
  dismissible = true,
  size = "md",
}: {
  title: string;
  description?: ReactNode;
  closeTo: string;
  children: ReactNode;
  dismissible?: boolean;
  size?: "sm" | "md" | "lg";
}) {
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>("input:not([type=hidden]):not([disabled]), select, textarea, button");
    first?.focus();
    if (!dismissible) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeTo, { preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [closeTo, dismissible, navigate]);
  const width = size === "sm" ? "max-w-sm" : size === "lg" ? "max-w-2xl" : "max-w-lg";
  return (
    <div className="fixed inset-0 z-[60] flex items-end justify-center bg-black/50 p-0 sm:items-center sm:p-4">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`card max-h-[92vh] w-full ${width} overflow-y-auto rounded-b-none p-5 sm:rounded-lg`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            {description ? <div className="page-subtitle mt-1">{description}</div> : null}
          </div>
          {dismissible ? (
            <Link to={closeTo} preventScrollReset aria-label="Close" className="btn-ghost -mr-2 -mt-1 px-2">
              <XIcon width={18} height={18} />
            </Link>
          ) : null}
        </div>
        {children}
      </div>
    </div>
  );
}

export function FormError({ errors, id }: { errors?: string[] | null; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

export function FieldError({ errors, id }: { errors?: string[] | null; id?: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="field-error">
      {errors[0]}
    </p>
  );
}
