// 'Add admin': name, email and a first password (typed, or generated here). The server keeps only
// the password's hash, so the sign-in details are shown once after saving, to pass on.

import { zodResolver } from "@hookform/resolvers/zod";
import { Wand2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { adminCreateSchema } from "@/shared/admin-schemas";
import { PASSWORD_MIN } from "@/shared/schemas";
import { Button } from "@/web/components/ui/button";
import { CopyButton } from "@/web/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../components/dialog-actions";
import { Field, FormError, setServerErrors } from "../components/form-field";
import { AdminIdentityFields } from "./admin-identity-fields";
import { useCreateAdmin } from "./api/create-admin";

const WORDS = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** 16 characters from an unambiguous alphabet, from the browser's secure random source. */
export function generatePassword(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += WORDS[b % WORDS.length];
  // the server wants at least two kinds of character
  return /\d/.test(out) && /[a-z]/i.test(out) ? out : `${out.slice(0, -2)}7k`;
}

const EMPTY = { name: "", email: "", password: "" };

type AdminCreate = z.output<typeof adminCreateSchema>;
const FIELDS = ["name", "email", "password"] as const;

export function AddAdminDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateAdmin();
  const [created, setCreated] = useState<{ name: string; email: string; password: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    reset,
    formState: { errors },
  } = useForm<AdminCreate>({ resolver: zodResolver(adminCreateSchema), defaultValues: EMPTY });

  const close = (next: boolean) => {
    if (create.isPending) return;
    onOpenChange(next);
    if (!next) {
      reset(EMPTY);
      setCreated(null);
    }
  };

  const submit = handleSubmit(async (values) => {
    try {
      const admin = await create.mutateAsync(values);
      setCreated({ name: admin.name, email: admin.email, password: values.password });
      toast.success("Admin added", { description: `${admin.name} can now sign in to the dashboard.` });
    } catch (error) {
      setServerErrors(error, setError, FIELDS);
      toast.error("Admin not added", { description: error instanceof Error ? error.message : "Please try again." });
    }
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>{created.name} is an admin</DialogTitle>
              <DialogDescription>
                Pass these sign-in details on privately. Ask them to change the password under My account.
              </DialogDescription>
            </DialogHeader>
            <div className="flex flex-col gap-3">
              <div className="flex items-center justify-between gap-3 rounded-xl border border-line bg-surface-raised p-3">
                <div className="min-w-0">
                  <p className="text-xs text-ink-subtle">Email</p>
                  <p className="truncate text-ink">{created.email}</p>
                </div>
                <CopyButton value={created.email} label="Email" />
              </div>
              <div className="flex items-center justify-between gap-3 rounded-xl border border-special/50 bg-special-soft/40 p-3">
                <div className="min-w-0">
                  <p className="text-xs text-ink-subtle">Password</p>
                  <p className="font-mono text-lg break-all text-ink" data-testid="one-time-password">
                    {created.password}
                  </p>
                </div>
                <CopyButton value={created.password} label="Password" />
              </div>
              <p role="note" className="text-sm text-special-ink">
                This password is shown only once: the dashboard keeps only a scrambled copy.
              </p>
            </div>
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <DialogHeader>
              <DialogTitle>Add admin</DialogTitle>
              <DialogDescription>They can do everything you can in the business dashboard.</DialogDescription>
            </DialogHeader>
            <div className="flex flex-col gap-4">
              <FormError message={errors.root?.server?.message} />
              <AdminIdentityFields register={register} errors={errors} />
              <Field
                label="First password"
                required
                error={errors.password?.message}
                hint={`At least ${PASSWORD_MIN} characters, mixing letters, numbers or symbols. Shown once after saving.`}
              >
                {(control) => (
                  <div className="flex gap-2">
                    <Input {...control} {...register("password")} autoComplete="new-password" spellCheck={false} className="font-mono" />
                    <Button
                      variant="outline"
                      size="sm"
                      className="min-h-12"
                      onClick={() => setValue("password", generatePassword(), { shouldValidate: true, shouldDirty: true })}
                    >
                      <Wand2 aria-hidden="true" />
                      Generate
                    </Button>
                  </div>
                )}
              </Field>
            </div>
            <DialogActions onCancel={() => close(false)} busy={create.isPending} submit="Add admin" busyLabel="Adding..." />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
