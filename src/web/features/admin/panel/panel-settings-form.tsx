// The panel's two settings on its page: the stream server subscribers' apps connect to (every
// M3U/EPG link and QR code is built on it; empty falls back to the server's PANEL_STREAM_URL)
// and how long a read of the panel is kept. The shared schema checks both here and on the server.
import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { type Resolver, useForm } from "react-hook-form";
import type { AdminPanelView } from "@/shared/business-schemas";
import { type PanelSettings, panelSettingsSchema } from "@/shared/panel-settings";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { Field, FormError, toastServerErrors } from "../components/form-field";
import { useSavePanelSettings } from "./api/save-panel-settings";
import { STREAM_URL_EXAMPLE, STREAM_URL_INPUT_PROPS } from "./stream-url-input";

interface Values {
  stream_url: string;
  cache_minutes: string;
}

const resolver = zodResolver(panelSettingsSchema) as unknown as Resolver<Values, unknown, PanelSettings>;

/** Where the URL in use comes from, in the owner's words. */
export function streamUrlSourceText(view: Pick<AdminPanelView, "stream_url_source" | "stream_url">): string {
  switch (view.stream_url_source) {
    case "setting":
      return "Your setting.";
    case "environment":
      return "The server's PANEL_STREAM_URL (type one here to use another).";
    case "panel":
      return "Your panel's own address, as no stream URL is set: set it if your panel shows customers another one.";
    case "sandbox":
      return "The sandbox panel's test address: its lines play nothing.";
    default:
      return "None yet: customers' links would not work. Set it before the first line goes out.";
  }
}

export function PanelSettingsForm({ view }: { view: AdminPanelView }) {
  const save = useSavePanelSettings();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values, unknown, PanelSettings>({
    resolver,
    values: { stream_url: view.stream_url_setting, cache_minutes: String(view.cache_minutes) },
  });

  const onSubmit = handleSubmit(async (settings) => {
    try {
      const saved = await save.mutateAsync(settings);
      reset({ stream_url: saved.stream_url_setting, cache_minutes: String(saved.cache_minutes) });
      toast.success("Panel settings saved", {
        description: saved.stream_url ? `Customers' links now use ${saved.stream_url}.` : "No stream server is set.",
      });
    } catch (error) {
      toastServerErrors(error, setError, ["stream_url", "cache_minutes"], "Not saved");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Panel settings">
      <FormError message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Field
          label="Stream server URL"
          error={errors.stream_url?.message}
          hint={
            <>
              http(s)://host or http(s)://host:port, as your panel shows customers. In use now:{" "}
              <span className="font-mono break-all" data-testid="stream-url-in-use">
                {view.stream_url || "none"}
              </span>{" "}
              — {streamUrlSourceText(view)}
            </>
          }
        >
          {(c) => (
            <Input
              {...c}
              {...register("stream_url")}
              {...STREAM_URL_INPUT_PROPS}
              placeholder={view.stream_url_default || STREAM_URL_EXAMPLE}
            />
          )}
        </Field>
        <Field
          label="Keep panel reads for (minutes)"
          error={errors.cache_minutes?.message}
          hint="1 to 60. Credits, packages and lines are read from the panel at most this often; Refresh reads them now."
        >
          {(c) => <Input {...c} {...register("cache_minutes")} inputMode="numeric" autoComplete="off" className="max-w-28" />}
        </Field>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={isSubmitting || !isDirty}>
          <Save aria-hidden="true" />
          {isSubmitting ? "Saving..." : "Save panel settings"}
        </Button>
      </div>
    </form>
  );
}
