// The admin CRUD (../../api/admin-crud.ts) as used by notices, knowledge-base articles, releases,
// status components and incidents: a resource is its URL segment and the query key of its list.
export interface AdminResource {
  /** the segment after /api/admin/ (e.g. "notices", "kb") */
  path: string;
  /** the list's query key, ["admin", <table>] */
  key: readonly string[];
  /** for messages: "Notice" */
  label: string;
}
