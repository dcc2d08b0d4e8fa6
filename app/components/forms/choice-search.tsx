// A select of agents or clients grows with the business; DESIGN.md wants such a list searchable
// once it can pass a few dozen (decision 0200). Once the page's
// JavaScript runs and the list is long, a search box above the select narrows its options:
// every word typed must appear in the name, ignoring case and spacing. A single match, or Enter,
// chooses it. The box has no name, so it is never submitted; the select stays the field, so
// forms, filters and the offline outbox read it as before. Without JavaScript the select lists
// every choice, and a desktop browser's own type-ahead still finds a name in it.
import { useEffect, useState, type ReactNode } from "react";
import { useHydrated } from "~/hooks/use-hydrated";

type Choice = { id: string | number; name: string };

/** From this many choices the search box shows: about what a phone's picker holds on one screen. */
const SEARCH_FROM = 12;

const words = (text: string) => text.toLocaleLowerCase().split(/\s+/).filter(Boolean);

/** Whether every word of `query` is part of `name`, ignoring case and spacing. */
export function choiceMatches(name: string, query: string): boolean {
  const spaced = words(name).join(" ");
  return words(query).every((word) => spaced.includes(word));
}

/**
 * The search box for the select `selectId` (null while it is not needed) and the choices to
 * render as its options. The option chosen when the search changed stays among them, so
 * narrowing the list never changes the field's value behind the person's back.
 */
export function useChoiceSearch<T extends Choice>(
  choices: T[],
  selectId: string,
  nouns: string,
): { search: ReactNode; shown: T[] } {
  const hydrated = useHydrated();
  // `pick` is a new object for each choice made here, so the same name chosen twice applies twice.
  const [{ query, kept, pick }, setState] = useState<{ query: string; kept: string; pick: { id: string } | null }>({
    query: "",
    kept: "",
    pick: null,
  });
  // Choose after the render that put the option in the select.
  useEffect(() => {
    const select = document.getElementById(selectId) as HTMLSelectElement | null;
    if (!pick || !select || select.value === pick.id) return;
    select.value = pick.id;
    // Conform and the outbox follow the field through the events a person's choice fires.
    select.dispatchEvent(new Event("input", { bubbles: true }));
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }, [pick, selectId]);
  if (!hydrated || choices.length < SEARCH_FROM) return { search: null, shown: choices };

  const matches = choices.filter((c) => choiceMatches(c.name, query));
  const matched = new Set(matches);
  const shown = choices.filter((c) => matched.has(c) || String(c.id) === kept);
  const search = (
    <>
      <input
        type="search"
        className="input mb-2"
        placeholder={`Search ${nouns}`}
        aria-label={`Search ${nouns}`}
        aria-controls={selectId}
        aria-describedby={`${selectId}-found`}
        autoComplete="off"
        value={query}
        onChange={(event) => {
          const next = event.currentTarget.value;
          const current = (document.getElementById(selectId) as HTMLSelectElement | null)?.value ?? "";
          const found = choices.filter((c) => choiceMatches(c.name, next));
          const only = next.trim() && found.length === 1 ? String(found[0].id) : "";
          setState({ query: next, kept: only || current, pick: only ? { id: only } : null });
        }}
        onKeyDown={(event) => {
          // Enter in the box chooses the first match instead of sending the form.
          if (event.key !== "Enter") return;
          event.preventDefault();
          const first = matches[0] ? String(matches[0].id) : "";
          if (first) setState({ query, kept: first, pick: { id: first } });
        }}
      />
      <p id={`${selectId}-found`} aria-live="polite" className={query.trim() ? "page-subtitle mb-2" : "sr-only"}>
        {query.trim() ? `${matches.length} of ${choices.length} ${nouns} match` : ""}
      </p>
    </>
  );
  return { search, shown };
}
