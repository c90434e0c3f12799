// A help article's body is plain text with a little structure (docs/architecture.md, "Data": kb_articles.body).
// This turns it into headings, paragraphs and lists as React elements: text is never parsed as
// HTML, so an article can't inject markup or script, whatever an editor types.
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";

export type KbBlock =
  | { kind: "heading"; level: 2 | 3; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; start: number; items: string[] };

const MARKDOWN_HEADING = /^(#{1,6})\s+(.+)$/;
const NUMBERED = /^(\d{1,3})[.)]\s+(.+)$/;
const BULLET = /^[-*•]\s+(.+)$/;
/** Short, unpunctuated first lines ('The rules', '2. Run the stream test') title what follows. */
const MAX_HEADING_LENGTH = 80;

function looksLikeTitle(line: string): boolean {
  return line.length <= MAX_HEADING_LENGTH && !/[.:;,!]$/.test(line) && !BULLET.test(line);
}

/** Blank lines separate blocks; within one, lists and paragraphs follow each other line by line. */
export function parseKbBody(body: string): KbBlock[] {
  const blocks: KbBlock[] = [];
  const groups = body.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/);
  for (const group of groups) {
    const lines = group
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    let paragraph: string[] = [];
    let list: Extract<KbBlock, { kind: "list" }> | null = null;
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
      if (list) blocks.push(list);
      paragraph = [];
      list = null;
    };
    lines.forEach((line, index) => {
      const heading = MARKDOWN_HEADING.exec(line);
      if (heading) {
        flush();
        blocks.push({ kind: "heading", level: heading[1].length <= 2 ? 2 : 3, text: heading[2].trim() });
        return;
      }
      const next = lines[index + 1];
      // A titled group: its first line is a heading when more follows that is not the same kind
      // of list item ('1. Choose and pay' over a paragraph; not '1. Open…' over '2. Search…').
      if (index === 0 && next !== undefined && looksLikeTitle(line) && !(NUMBERED.test(line) && NUMBERED.test(next))) {
        blocks.push({ kind: "heading", level: 2, text: line });
        return;
      }
      const numbered = NUMBERED.exec(line);
      const bullet = numbered ? null : BULLET.exec(line);
      if (numbered || bullet) {
        const ordered = numbered !== null;
        const item = (numbered?.[2] ?? bullet?.[1] ?? "").trim();
        if (paragraph.length) {
          blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
          paragraph = [];
        }
        if (list && list.ordered === ordered) list.items.push(item);
        else {
          if (list) blocks.push(list);
          list = { kind: "list", ordered, start: numbered ? Number(numbered[1]) : 1, items: [item] };
        }
        return;
      }
      if (list) {
        blocks.push(list);
        list = null;
      }
      paragraph.push(line);
    });
    flush();
  }
  return blocks;
}

// **bold**, our own paths (' /status') and web addresses become elements; everything else is text.
const INLINE = /\*\*([^*]+)\*\*|(?<=^|[\s(])(\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*)|(https?:\/\/[^\s<>"')]+[^\s<>"').,;:!?])/g;

export function renderInline(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    const [whole, bold, path, url] = match;
    if (bold !== undefined) parts.push(<strong key={index}>{bold}</strong>);
    else if (path !== undefined)
      parts.push(
        <Link key={index} to={path} className="font-medium text-accent-ink underline underline-offset-4">
          {path}
        </Link>,
      );
    else
      parts.push(
        <a key={index} href={url} target="_blank" rel="noopener noreferrer" className="text-accent-ink underline underline-offset-4">
          {url}
        </a>,
      );
    last = index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** An article body as readable, safe elements. */
export function KbBody({ body }: { body: string }) {
  const blocks = parseKbBody(body);
  return (
    <div className="flex flex-col gap-4 text-base leading-relaxed text-ink-muted sm:text-lg">
      {blocks.map((block, index) => (
        // Blocks have no identity beyond their place in the text.
        <Fragment key={index}>{renderBlock(block)}</Fragment>
      ))}
    </div>
  );
}

function renderBlock(block: KbBlock): ReactNode {
  if (block.kind === "heading") {
    const Heading = block.level === 2 ? "h2" : "h3";
    return (
      <Heading className={block.level === 2 ? "mt-4 text-xl font-semibold text-ink sm:text-2xl" : "mt-2 text-lg font-semibold text-ink"}>
        {renderInline(block.text)}
      </Heading>
    );
  }
  if (block.kind === "paragraph") return <p className="text-pretty">{renderInline(block.text)}</p>;
  const items = block.items.map((item, i) => (
    <li key={i} className="pl-1.5">
      {renderInline(item)}
    </li>
  ));
  return block.ordered ? (
    <ol start={block.start} className="flex list-decimal flex-col gap-2 pl-6 marker:font-semibold marker:text-accent-ink">
      {items}
    </ol>
  ) : (
    <ul className="flex list-disc flex-col gap-2 pl-6 marker:text-accent-ink">{items}</ul>
  );
}
