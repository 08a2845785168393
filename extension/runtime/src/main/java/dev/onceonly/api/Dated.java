package dev.onceonly.api;

import java.time.Instant;

/**
 * An event that says when it happened. Every event a consumer claims needs a date that is part of
 * its payload: it chooses the claim's daily partition (so every exact copy meets the first claim)
 * and the rule that decides the message (claimed, decided by natural keys when older than the claim
 * window, rejected when stale or dated ahead of the clock). Never the time of arrival: a redelivery
 * a day later would then claim again.
 */
public interface Dated {

  /** When the event happened, as the producer wrote it. */
  Instant occurredAt();
}
