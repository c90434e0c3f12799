// What the portal's request cards (content requests, privacy requests) share: a form whose send
// is thanked in a toast and then emptied for the next request (its kind kept), and the list of
// the client's earlier requests under it.
import type { ReactNode } from "react";
import { type DefaultValues, type FieldValues, type Path, type Resolver, useForm } from "react-hook-form";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/lib/toast";
import { applyFieldErrors, errorMessage } from "./server-errors";

export function useRequestForm<T extends FieldValues>({
  resolver,
  defaultValues,
  fields,
  keep,
  send,
}: {
  /** zodResolver over the request's shared schema */
  resolver: Resolver<T>;
  defaultValues: DefaultValues<T>;
  /** the fields the server's errors may name */
  fields: readonly Path<T>[];
  /** the field the next request starts from as this one had it (its kind) */
  keep: keyof T & string;
  /** sends the request; resolves to the toast's words */
  send: (values: T) => Promise<string>;
}) {
  const form = useForm<T>({ resolver, defaultValues });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const description = await send(values);
      form.reset({ ...defaultValues, [keep]: values[keep] });
      toast.success("Request Sent", { description });
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, fields)) toast.error("Request Failed", { description: errorMessage(error) });
    }
  });
  return { ...form, onSubmit };
}

export function RequestHistory<R>({
  title,
  requests,
  children,
}: {
  title: string;
  requests: { isPending: boolean; isError: boolean; data?: R[] };
  children: (request: R) => ReactNode;
}) {
  const list = requests.data ?? [];
  return (
    <>
      <h3 className="mt-6 text-sm font-semibold tracking-wide text-ink-muted uppercase">{title}</h3>
      {requests.isPending ? (
        <Skeleton className="mt-3 h-14 w-full" />
      ) : list.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">
          {requests.isError ? "We couldn't load your requests just now." : "You haven't asked for anything yet."}
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-2">{list.map(children)}</ul>
      )}
    </>
  );
}
