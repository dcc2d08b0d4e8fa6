import type { ReactNode } from "react";

/**
 * The html element around every page the app renders, the app's own and the printable invoice
 * alike: the language, the theme (dark class and color-scheme), the viewport and the browser
 * bar's colour; `head` is what each page adds to its head after these.
 */
export function PageHtml({
  theme,
  head,
  bodyClassName,
  children,
}: {
  theme: "light" | "dark";
  head: ReactNode;
  bodyClassName: string;
  children: ReactNode;
}) {
  return (
    <html lang="en" className={theme === "dark" ? "dark" : ""}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme} />
        <meta name="theme-color" content="#15803d" />
        {head}
      </head>
      <body className={bodyClassName}>{children}</body>
    </html>
  );
}
