// The console's event hub: "something changed in X". Pages subscribe to topics; whatever
// learns of a change publishes it: the console itself (after its own mutations), the
// partner's server-sent event streams (live.ts: other users' changes as they commit), and,
// as fallbacks, the window regaining focus and a slow poll (useResource). A topic is a short domain word: "items", "checkouts", "hub-tasks",
// "alerts", "workflow-cases", "webhooks", "saved-views", "projects", … ("*": everything).

export type Topic = string;
type Listener = (topic: Topic) => void;

const listeners = new Map<Topic, Set<Listener>>();

/** Calls fn whenever one of `topics` (or "*") is published; returns the unsubscribe. */
export function subscribe(topics: readonly Topic[], fn: Listener): () => void {
  for (const t of topics) {
    if (!listeners.has(t)) listeners.set(t, new Set());
    listeners.get(t)!.add(fn);
  }
  return () => {
    for (const t of topics) listeners.get(t)?.delete(fn);
  };
}

/** Tells every subscriber of `topic` (and of "*") that its data may have changed. */
export function publish(topic: Topic): void {
  const called = new Set<Listener>();
  for (const t of topic === "*" ? [...listeners.keys()] : [topic, "*"]) {
    for (const fn of listeners.get(t) ?? []) {
      if (called.has(fn)) continue;
      called.add(fn);
      fn(topic);
    }
  }
}
