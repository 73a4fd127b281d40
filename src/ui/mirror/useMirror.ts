import { useSyncExternalStore } from "react";
import type { Feed, FeedView } from "./daemon-mirror.ts";

/** The daemon's state, re-rendering at most as often as the feed publishes. */
export function useFeed(feed: Feed): FeedView {
  return useSyncExternalStore(feed.subscribe, feed.getView);
}
