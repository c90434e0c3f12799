// A secret shown dotted out until asked (a line's password, in the dashboard and the portal): the
// state and its eye button, which says what it shows or hides and whether it is pressed.
import { Eye, EyeOff } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "@/web/components/ui/button";

/** [shown, the button that toggles it]; `what` completes its name: 'Show line password'. */
export function useRevealToggle(what: string): [boolean, ReactNode] {
  const [shown, setShown] = useState(false);
  const toggle = (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => setShown((s) => !s)}
      aria-label={`${shown ? "Hide" : "Show"} ${what}`}
      aria-pressed={shown}
    >
      {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
    </Button>
  );
  return [shown, toggle];
}
