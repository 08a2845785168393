package dev.onceonly.internal.claim;

/** The answer of one claim attempt. */
public enum ClaimResult {
  CLAIMED,
  DUPLICATE,
  CONFLICT
}
