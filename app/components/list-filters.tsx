import { useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { useChoiceSearch } from "~/components/forms";

// The fields of a list's filter card (`FilterForm`, in its own module: the Deliveries list, which
// New Delivery's budget pays for, uses the card and none of these). Each field starts from the URL.

/** A filter's label above its control; the control's id is the filter's name. */
function FilterField({ name, label, children }: { name: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label className="label" htmlFor={name}>
        {label}
      </label>
      {children}
    </div>
  );
}

export function FilterText({ name, label, numeric = false }: { name: string; label: string; numeric?: boolean }) {
  const [params] = useSearchParams();
  return (
    <FilterField name={name} label={label}>
      <input
        id={name}
        name={name}
        inputMode={numeric ? "numeric" : undefined}
        className="input"
        defaultValue={params.get(name) ?? ""}
      />
    </FilterField>
  );
}

export function FilterDate({ name, label }: { name: string; label: string }) {
  const [params] = useSearchParams();
  return (
    <FilterField name={name} label={label}>
      <input id={name} name={name} type="date" className="input" defaultValue={params.get(name) ?? ""} />
    </FilterField>
  );
}

export function FilterSelect({
  name,
  label,
  allLabel,
  options,
  searchNouns,
}: {
  name: string;
  label: string;
  allLabel: string;
  options: { value: string | number; label: string }[];
  /** A list that grows with the business (clients) gets a search box once it is long. */
  searchNouns?: string;
}) {
  const [params] = useSearchParams();
  const all = options.map((o) => ({ id: o.value, name: o.label }));
  const found = useChoiceSearch(all, name, searchNouns ?? "");
  const { search, shown } = searchNouns ? found : { search: null, shown: all };
  return (
    <FilterField name={name} label={label}>
      {search}
      <select id={name} name={name} className="input" defaultValue={params.get(name) ?? ""}>
        <option value="">{allLabel}</option>
        {shown.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </FilterField>
  );
}

const clientOptions = (clients: { id: number; name: string }[]) => clients.map((c) => ({ value: c.id, label: c.name }));

/** The Client filter of the Invoices and Payments lists: searchable once the clients are many. */
export function ClientFilter({ clients }: { clients: { id: number; name: string }[] }) {
  return (
    <FilterSelect
      name="clientId"
      label="Client"
      allLabel="All clients"
      options={clientOptions(clients)}
      searchNouns="clients"
    />
  );
}
