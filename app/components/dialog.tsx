import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { FormErrors } from "./forms";
import { XIcon } from "./icons";

const FIELDS = "input:not([type=hidden]):not([disabled]),select,textarea";

/**
 * A dialog that is a route: the same markup works as a page without JavaScript (close is a
 * link) and as a modal with it (Escape closes, focus moves inside and Tab stays inside).
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
    const root = ref.current!;
    // The first field; in a confirmation, its Cancel (data-autofocus), so that Enter does not
    // confirm at once; else the first control below the title.
    (
      root.querySelector<HTMLElement>(`${FIELDS},[data-autofocus]`) ??
      root.querySelector<HTMLElement>("a[href]:not([aria-label=Close]),button")
    )?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && dismissible) navigate(closeTo, { preventScrollReset: true });
      // aria-modal: Tab from the last control goes to the first, Shift+Tab from the first to the last.
      if (event.key !== "Tab") return;
      const controls = [...root.querySelectorAll<HTMLElement>(`${FIELDS},a[href],button:not([disabled])`)].filter(
        (el) => el.getClientRects().length,
      );
      const [from, to] = event.shiftKey ? [0, controls.length - 1] : [controls.length - 1, 0];
      if (controls.length && (!root.contains(document.activeElement) || document.activeElement === controls[from])) {
        event.preventDefault();
        controls[to].focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [closeTo, dismissible, navigate]);
  const width = size === "sm" ? "max-w-sm" : size === "lg" ? "max-w-2xl" : "max-w-lg";
  return (
    // !m-0: a dialog route renders inside its list's `space-y-*` stack, whose top margin would
    // otherwise push the fixed overlay down and leave an undimmed strip at the top.
    <div className="fixed inset-0 z-[60] !m-0 flex items-end justify-center bg-black/50 p-0 sm:items-center sm:p-4">
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

/** The form-level summary; see `FormErrors` in ./forms. */
export function FormError({ errors, id }: { errors?: string[] | null; id?: string }) {
  return <FormErrors errors={errors} id={id} />;
}

/**
 * A dialog that has nothing to offer (the invoice is void, there is no credit, the delivery is
 * invoiced): why, a Back link, and any other way out (`actions`) before it.
 */
export function NoticeDialog({
  title,
  closeTo,
  children,
  actions,
}: {
  title: string;
  closeTo: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Dialog title={title} closeTo={closeTo} size="sm">
      <p className="text-sm">{children}</p>
      <div className="mt-4 flex justify-end gap-2">
        {actions}
        <Link to={closeTo} className="btn-outline">
          Back
        </Link>
      </div>
    </Dialog>
  );
}
