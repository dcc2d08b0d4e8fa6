import { useSearchParams } from "@remix-run/react";
import { useChoiceSearch } from "~/components/forms";

// The fields of a list's filter card (`FilterForm`, in its own module: the Deliveries list, which
// New Delivery's budget pays for, uses the card and none of these). Each field starts from the URL.

export function FilterText({ name, label, numeric = false }: { name: string; label: string; numeric?: boolean }) {
  const [params] = useSearchParams();
  return (
    <div>
      <label className="label" htmlFor={name}>
        {label}
      </label>
      <input
        id={name}
        name={name}
        inputMode={numeric ? "numeric" : undefined}
        className="input"
        defaultValue={params.get(name) ?? ""}
      />
    </div>
  );
}

export function FilterDate({ name, label }: { name: string; label: string }) {
  const [params] = useSearchParams();
  return (
    <div>
      <label className="label" htmlFor={name}>
        {label}
      </label>
      <input id={name} name={name} type="date" className="input" defaultValue={params.get(name) ?? ""} />
    </div>
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
    <div>
      <label className="label" htmlFor={name}>
        {label}
      </label>
      {search}
      <select id={name} name={name} className="input" defaultValue={params.get(name) ?? ""}>
        <option value="">{allLabel}</option>
        {shown.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
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
