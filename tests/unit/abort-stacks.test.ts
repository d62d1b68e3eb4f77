import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { releaseAbortReasonStacks } from "@/lib/framework-gaps/abort-reason-stacks";

// The mechanism of the leak lib/framework-gaps/abort-reason-stacks.ts works around: an abort reason whose stack
// was never read keeps the receivers of its frames alive (React's render-completed reason kept
// whole renders). Checked with a real garbage collection.

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Aborts from a method of a large object, the way React aborts from inside its render's job. */
function abortFromInside(controller: AbortController): WeakRef<object> {
  const render = {
    payload: new Array(100_000).fill("x"),
    finish() {
      controller.abort(new Error("This render completed successfully."));
    },
  };
  render.finish();
  return new WeakRef(render);
}

async function retained(controller: AbortController, ref: WeakRef<object>) {
  await nextTask();
  gc();
  await nextTask();
  gc();
  void controller.signal.aborted; // the controller (and its reason) stays alive until here
  return ref.deref() !== undefined;
}

describe("releaseAbortReasonStacks", () => {
  it("without it, the unread stack of an abort reason keeps the aborting object alive", async () => {
    const controller = new AbortController();
    expect(await retained(controller, abortFromInside(controller))).toBe(true);
  });

  it("with it, the reason's stack is a string and the object can be collected", async () => {
    releaseAbortReasonStacks();
    releaseAbortReasonStacks(); // once per process, however often it is called
    const controller = new AbortController();
    const ref = abortFromInside(controller);
    expect(typeof (controller.signal.reason as Error).stack).toBe("string");
    expect(controller.signal.reason).toBeInstanceOf(Error);
    expect(await retained(controller, ref)).toBe(false);
    // abort() without a reason still works (Node's own AbortError)
    const bare = new AbortController();
    bare.abort();
    expect((bare.signal.reason as Error).name).toBe("AbortError");
  });
});
