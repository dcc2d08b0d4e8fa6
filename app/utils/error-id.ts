import { createContext, useContext, useState } from "react";

// The id an unexpected error was logged under: rendered on the server's error page, and read
// back from that page when the browser hydrates it.
export const ErrorIdContext = createContext<string | undefined>(undefined);

export function useErrorId(): string | undefined {
  const fromServer = useContext(ErrorIdContext);
  const [fromPage] = useState(() =>
    typeof document === "undefined"
      ? undefined
      : document.querySelector<HTMLElement>("[data-error-id]")?.dataset.errorId,
  );
  return fromServer ?? fromPage;
}
