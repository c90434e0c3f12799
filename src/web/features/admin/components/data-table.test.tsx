import { act, useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, render, renderRoutes, waitFor } from "@/web/testing/render";
import { type Column, DataTable, type SortState, tableStateProps } from "./data-table";
import { useTableParams } from "./use-table-params";

interface Row {
  id: string;
  name: string;
  amount: number;
}

const columns: Column<Row>[] = [
  { id: "name", header: "Name", sortable: true, card: "title", cell: (r) => r.name },
  { id: "amount", header: "Amount", sortable: true, className: "tabular", cell: (r) => `R${r.amount}` },
];

const ROWS: Row[] = [
  { id: "1", name: "Thabo", amount: 650 },
  { id: "2", name: "Ayanda", amount: 1650 },
  { id: "3", name: "Lerato", amount: 200 },
  { id: "4", name: "Zanele", amount: 3150 },
  { id: "5", name: "Bongani", amount: 900 },
];

const bodyNames = (container: HTMLElement) => [...container.querySelectorAll("tbody tr")].map((tr) => tr.querySelector("td")?.textContent);
const header = (container: HTMLElement, name: string) =>
  [...container.querySelectorAll("th")].find((th) => th.textContent?.startsWith(name)) as HTMLTableCellElement;

afterEach(async () => {
  await cleanup();
  vi.useRealTimers();
});

describe("DataTable in the browser (all rows given)", () => {
  it("sorts by a column on click, then the other way on a second click, and says so with aria-sort", async () => {
    const { container } = await render(<DataTable caption="People" columns={columns} rows={ROWS} rowKey={(r) => r.id} />);
    expect(bodyNames(container)).toEqual(["Thabo", "Ayanda", "Lerato", "Zanele", "Bongani"]);
    expect(header(container, "Name").getAttribute("aria-sort")).toBe("none");

    await click(header(container, "Amount").querySelector("button"));
    expect(bodyNames(container)).toEqual(["Lerato", "Thabo", "Bongani", "Ayanda", "Zanele"]);
    expect(header(container, "Amount").getAttribute("aria-sort")).toBe("ascending");

    await click(header(container, "Amount").querySelector("button"));
    expect(bodyNames(container)).toEqual(["Zanele", "Ayanda", "Bongani", "Thabo", "Lerato"]);
    expect(header(container, "Amount").getAttribute("aria-sort")).toBe("descending");

    await click(header(container, "Name").querySelector("button"));
    expect(bodyNames(container)).toEqual(["Ayanda", "Bongani", "Lerato", "Thabo", "Zanele"]);
  });

  it("pages the rows and tells how many there are", async () => {
    const { container, text } = await render(
      <DataTable caption="People" columns={columns} rows={ROWS} rowKey={(r) => r.id} pageSize={2} sort={{ id: "name", dir: "asc" }} />,
    );
    expect(bodyNames(container)).toEqual(["Ayanda", "Bongani"]);
    expect(text()).toContain("1–2 of 5");
    expect(text()).toContain("Page 1 of 3");
    expect((getByRoleName(container, "button", "Previous") as HTMLButtonElement).disabled).toBe(true);

    await click(getByRoleName(container, "button", "Next"));
    expect(bodyNames(container)).toEqual(["Lerato", "Thabo"]);
    await click(getByRoleName(container, "button", "Next"));
    expect(bodyNames(container)).toEqual(["Zanele"]);
    expect(text()).toContain("5–5 of 5");
    expect((getByRoleName(container, "button", "Next") as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the empty message, or 'Nothing matches' with a way to clear the filters", async () => {
    const onClear = vi.fn();
    const empty = await render(
      <DataTable caption="People" columns={columns} rows={[]} rowKey={(r) => r.id} emptyMessage="No people yet." />,
    );
    expect(empty.container.querySelector("[data-testid=table-empty]")?.textContent).toBe("No people yet.");
    expect(empty.container.querySelector("table")).toBeNull();

    const filtered = await render(
      <DataTable caption="People" columns={columns} rows={[]} rowKey={(r) => r.id} isFiltered onClearFilters={onClear} />,
    );
    expect(filtered.container.querySelector("[data-testid=table-empty]")?.textContent).toBe("Nothing matches these filters.");
    await click(getByRoleName(filtered.container, "button", "Clear filters"));
    expect(onClear).toHaveBeenCalledTimes(1);
  });

  it("shows a loading skeleton until rows arrive", async () => {
    const { container } = await render(<DataTable caption="People" columns={columns} rows={undefined} loading rowKey={(r) => r.id} />);
    expect(container.querySelector("[data-testid=table-loading]")?.getAttribute("aria-busy")).toBe("true");
    expect(container.querySelector("table")).toBeNull();
  });

  it("opens a row on click, but not when one of the row's own controls is used", async () => {
    const open = vi.fn();
    const withButton: Column<Row>[] = [...columns, { id: "act", header: "Act", cell: () => <button type="button">Do it</button> }];
    const { container } = await render(
      <DataTable caption="People" columns={withButton} rows={ROWS.slice(0, 1)} rowKey={(r) => r.id} onRowClick={open} />,
    );
    await click(container.querySelector("tbody tr td:nth-child(2)"));
    expect(open).toHaveBeenCalledWith(ROWS[0]);
    await click(getByRoleName(container, "button", "Do it"));
    expect(open).toHaveBeenCalledTimes(1);
    // the keyboard way in: the first cell's button
    // (its name is "Open <title>", read from a visually hidden line, not an aria-label over the title)
    await click(container.querySelector("tbody tr td:first-child button"));
    expect(container.querySelector("tbody tr td:first-child button .sr-only")?.textContent).toBe("Open Thabo");
    expect(open).toHaveBeenCalledTimes(2);
  });
});

describe("DataTable fed by the server", () => {
  it("shows the given page as is and asks for other sorts and pages", async () => {
    const onSort = vi.fn();
    const onPage = vi.fn();
    const { container, text } = await render(
      <DataTable
        caption="People"
        columns={columns}
        rows={ROWS.slice(0, 2)}
        total={12}
        rowKey={(r) => r.id}
        pageSize={2}
        page={3}
        sort={{ id: "amount", dir: "desc" }}
        onSortChange={onSort}
        onPageChange={onPage}
      />,
    );
    // not re-sorted here: the server's order stands
    expect(bodyNames(container)).toEqual(["Thabo", "Ayanda"]);
    expect(text()).toContain("5–6 of 12");
    await click(header(container, "Amount").querySelector("button"));
    expect(onSort).toHaveBeenCalledWith({ id: "amount", dir: "asc" });
    await click(header(container, "Name").querySelector("button"));
    expect(onSort).toHaveBeenLastCalledWith({ id: "name", dir: "asc" });
    await click(getByRoleName(container, "button", "Next"));
    expect(onPage).toHaveBeenCalledWith(4);
  });

  it("reports the search once typing pauses, not on every key", async () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    const { container } = await render(
      <DataTable
        caption="People"
        columns={columns}
        rows={ROWS}
        rowKey={(r) => r.id}
        search=""
        onSearchChange={onSearch}
        searchDebounceMs={300}
      />,
    );
    const input = container.querySelector<HTMLInputElement>("input[type=search]")!;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    for (const value of ["t", "th", "tha"]) {
      await act(async () => {
        setter?.call(input, value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        vi.advanceTimersByTime(100);
      });
    }
    expect(onSearch).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(300));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith("tha");
  });
});

const NEWEST: SortState = { id: "created_at", dir: "desc" };

function List({ onQuery }: { onQuery: (query: string, exportQuery: string) => void }) {
  const table = useTableParams({ filters: ["status"], defaultSort: NEWEST });
  onQuery(table.query, table.exportQuery);
  const [rows] = useState(ROWS);
  return (
    <DataTable
      caption="People"
      columns={columns}
      rows={rows}
      total={40}
      rowKey={(r) => r.id}
      {...tableStateProps(table)}
      exportHref={`/api/admin/export/people.csv?${table.exportQuery}`}
      filters={
        <button type="button" onClick={() => table.setFilter("status", "paid")}>
          Only paid
        </button>
      }
    />
  );
}
describe("useTableParams with the table", () => {
  it("keeps filters, sort and page in the URL, and exports exactly the filtered list (no page)", async () => {
    const seen: [string, string][] = [];
    const { router, rendered } = renderRoutes(
      [{ path: "/admin/people", element: <List onQuery={(q, e) => seen.push([q, e])} /> }],
      "/admin/people?page=2&q=tha",
    );
    const { container } = await rendered;
    expect(seen.at(-1)).toEqual(["q=tha&sort=created_at&dir=desc&page=2&pageSize=25", "q=tha&sort=created_at&dir=desc"]);

    await click(getByRoleName(container, "button", "Only paid"));
    // a new filter goes back to the first page
    await waitFor(() => expect(router.state.location.search).toBe("?q=tha&status=paid"));
    expect(seen.at(-1)).toEqual([
      "q=tha&status=paid&sort=created_at&dir=desc&page=1&pageSize=25",
      "q=tha&status=paid&sort=created_at&dir=desc",
    ]);
    const exportLink = getByRoleName(container, "link", "Export CSV");
    expect(exportLink.getAttribute("href")).toBe("/api/admin/export/people.csv?q=tha&status=paid&sort=created_at&dir=desc");
    expect(exportLink.hasAttribute("download")).toBe(true);

    await click(header(container, "Amount").querySelector("button"));
    await waitFor(() => expect(router.state.location.search).toBe("?q=tha&status=paid&sort=amount&dir=asc"));
    await click(getByRoleName(container, "button", "Next"));
    await waitFor(() => expect(router.state.location.search).toBe("?q=tha&status=paid&sort=amount&dir=asc&page=2"));
  });
});
