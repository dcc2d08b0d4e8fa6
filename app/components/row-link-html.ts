// RowLink (row-link.tsx, decision 0505) for rows written as HTML (decision 0507): the same plain
// anchor, with `data-discover` so the app shell's click handler navigates in the app and Remix
// discovers the route, and `data-keep-scroll` for a dialog over the list.
import { html } from "~/utils/html";

export function rowLinkHtml(
  to: string,
  text: string,
  { className, label, keepScroll = false }: { className: string; label?: string; keepScroll?: boolean },
) {
  const keep = keepScroll && html` data-keep-scroll=""`;
  const aria = label && html` aria-label="${label}"`;
  return html`<a href="${to}" data-discover="true"${keep} class="${className}"${aria}>${text}</a>`;
}
