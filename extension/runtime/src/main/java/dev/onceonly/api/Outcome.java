package dev.onceonly.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a handler decided. Every outcome is acked after its transaction commits; conflicts (the same
 * key with another payload) are decided by the platform before a handler runs.
 */
public final class Outcome {

  /** The kinds of outcome a handler returns. */
  public enum Kind {
    /** The effect committed now. */
    APPLIED,
    /** The effect's natural key shows it happened before: nothing done. */
    DUPLICATE,
    /** Decided without an effect, and recorded with a reason for operators. */
    REJECTED
  }

  /** The effect and its outbox rows commit with the claim. */
  public static final Outcome APPLIED = new Outcome(Kind.APPLIED, null, null);

  /**
   * The effect's natural key was taken already (an expired claim, or a copy dated another day):
   * nothing was applied. A claimed message answered so makes the platform look for a claim of the
   * key on another day, and quarantine this copy as a conflict when its payload differs.
   */
  public static final Outcome DUPLICATE = new Outcome(Kind.DUPLICATE, null, null);

  /** Compiled once: {@code String.matches} compiled it again for every rejection. */
  private static final Pattern REASON = Pattern.compile("[a-z0-9_]{1,64}");

  private final Kind kind;
  private final String reason;
  private final String detail;

  private Outcome(Kind kind, String reason, String detail) {
    this.kind = kind;
    this.reason = reason;
    this.detail = detail;
  }

  /**
   * Decided without an effect, for {@code reason} (a short code such as {@code
   * insufficient_balance}) and a {@code detail} a person can act on. Recorded once per key; it
   * supersedes a rejection the platform made by the event's date ({@code future}, {@code stale}).
   * The handler must undo what it wrote for this message before it answers so, or throw instead.
   */
  public static Outcome rejected(String reason, String detail) {
    if (reason == null || !REASON.matcher(reason).matches()) {
      throw new IllegalArgumentException(
          "a rejection reason is 1 to 64 lower-case letters, digits or '_', was " + reason);
    }
    return new Outcome(Kind.REJECTED, reason, Objects.requireNonNull(detail, "detail"));
  }

  public Kind kind() {
    return kind;
  }

  /** The rejection's reason; null unless {@link Kind#REJECTED}. */
  public String reason() {
    return reason;
  }

  /** The rejection's detail; null unless {@link Kind#REJECTED}. */
  public String detail() {
    return detail;
  }

  @Override
  public String toString() {
    return kind == Kind.REJECTED ? "rejected(" + reason + ")" : kind.name().toLowerCase();
  }
}
