// GroupCommit: what arrives during a write goes together in the next; nothing waits on a timer.
import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit";

/** A write that records each batch and finishes only when told to. */
function heldWrites() {
  const batches: number[][] = [];
  const finish: (() => void)[] = [];
  const write = (items: readonly number[]) => {
    batches.push([...items]);
    return new Promise<number[]>((resolve) => finish.push(() => resolve(items.map((item) => item * 10))));
  };
  return { batches, finish, write };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("GroupCommit", () => {
  it("writes a lone item at once, in a batch of its own", async () => {
    const { batches, finish, write } = heldWrites();
    const commit = new GroupCommit(write);
    const answer = commit.submit(1);
    expect(batches).toEqual([[1]]);
    finish[0]();
    await expect(answer).resolves.toBe(10);
  });

  it("gathers what arrives during a write into the next, and answers each its own result", async () => {
    const { batches, finish, write } = heldWrites();
    const commit = new GroupCommit(write);
    const answers = [commit.submit(1), commit.submit(2), commit.submit(3), commit.submit(4)];
    expect(batches).toEqual([[1]]);
    finish[0]();
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    const late = commit.submit(5);
    finish[1]();
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    finish[2]();
    expect(await Promise.all([...answers, late])).toEqual([10, 20, 30, 40, 50]);
  });

  it("writes at most maxBatch items together; the rest go in the batch after", async () => {
    const { batches, finish, write } = heldWrites();
    const commit = new GroupCommit(write, 2);
    const answers = [1, 2, 3, 4, 5, 6].map((item) => commit.submit(item));
    for (let i = 0; i < 4; i++) {
      finish[i]?.();
      await turn();
    }
    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it("a write that fails refuses its own batch only; the next batch is still written", async () => {
    let calls = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const commit = new GroupCommit(async (items: readonly number[]) => {
      calls += 1;
      if (calls === 1) {
        await held;
        throw new Error("refused");
      }
      return items.map((item) => item + 1);
    });
    const first = commit.submit(1);
    const second = [commit.submit(2), commit.submit(3)];
    release();
    await expect(first).rejects.toThrow("refused");
    expect(await Promise.all(second)).toEqual([3, 4]);
    expect(calls).toBe(2);
  });

  it("a write that answers the wrong number of results refuses the batch rather than mis-answering", async () => {
    // Always one result, however many items: right for a batch of one, wrong for two.
    const commit = new GroupCommit(async (items: readonly number[]) => [items[0]]);
    const alone = commit.submit(1);
    const together = [commit.submit(2), commit.submit(3)];
    await expect(alone).resolves.toBe(1);
    for (const answer of together) await expect(answer).rejects.toThrow("1 results for 2 items");
  });

  it("counts what is pending: the batch being written and those waiting, none once all are answered", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const commit = new GroupCommit(async (items: readonly number[]) => {
      await held;
      return [...items];
    });
    expect(commit.pending).toBe(0);
    const answers = [commit.submit(1), commit.submit(2), commit.submit(3)];
    // the first is being written, the other two wait for the next batch
    expect(commit.pending).toBe(3);
    release();
    expect(await Promise.all(answers)).toEqual([1, 2, 3]);
    expect(commit.pending).toBe(0);
  });
});
