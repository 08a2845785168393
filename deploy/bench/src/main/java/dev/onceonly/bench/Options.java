package dev.onceonly.bench;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} command-line options with defaults. */
final class Options {

  private final Map<String, String> values = new HashMap<>();

  Options(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
      }
      values.put(args[i].substring(2), args[++i]);
    }
  }

  String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String require(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("missing --" + name);
    }
    return value;
  }

  int getInt(String name, int fallback) {
    return Integer.parseInt(get(name, Integer.toString(fallback)));
  }

  long getLong(String name, long fallback) {
    return Long.parseLong(get(name, Long.toString(fallback)));
  }
}
