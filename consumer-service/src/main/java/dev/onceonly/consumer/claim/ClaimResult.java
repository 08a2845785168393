package dev.onceonly.consumer.claim;

/** The answer of one claim attempt. */
public enum ClaimResult {
  CLAIMED,
  DUPLICATE,
  CONFLICT
}
