package dev.onceonly.chaos;

import java.time.Duration;

/**
 * How long and how big: the trimmed set (the default, and what the build runs) or {@code --full}
 * with the durations.
 *
 * @param name "trimmed" or "full"
 * @param customers customers of each stream
 * @param orders orders of each stream
 * @param window how long a fault is injected while the stream flows
 * @param databaseDown how long PostgreSQL stays stopped (scenario 3)
 * @param xminHeld how long a transaction holds back xmin (scenario 6)
 * @param drain longest wait for the pipeline to settle after the fault
 */
record Mode(
    String name,
    int customers,
    int orders,
    Duration window,
    Duration databaseDown,
    Duration xminHeld,
    Duration drain) {

  static final Mode TRIMMED =
      new Mode(
          "trimmed",
          32,
          160,
          Duration.ofSeconds(12),
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofSeconds(120));

  static final Mode FULL =
      new Mode(
          "full",
          200,
          2000,
          Duration.ofSeconds(90),
          Duration.ofSeconds(60),
          Duration.ofMinutes(5),
          Duration.ofSeconds(300));
}
