package dev.onceonly.relay.health;

/** Compares Flyway versions such as {@code 2}, {@code 2.1} or {@code 10_1} part by part. */
final class FlywayVersions {

  private FlywayVersions() {}

  static boolean atLeast(String version, String required) {
    return compare(version, required) >= 0;
  }

  static int compare(String a, String b) {
    String[] left = a.strip().split("[._]");
    String[] right = b.strip().split("[._]");
    for (int i = 0; i < Math.max(left.length, right.length); i++) {
      long l = i < left.length ? part(left[i]) : 0;
      long r = i < right.length ? part(right[i]) : 0;
      if (l != r) {
        return Long.compare(l, r);
      }
    }
    return 0;
  }

  private static long part(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
