package dev.onceonly.relay.destination.http;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of a value put into a URL template (RFC 3986: all but unreserved bytes). */
final class UrlEncoding {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private UrlEncoding() {}

  /** {@code value} as it may stand in a path segment or a query value, e.g. {@code a%2Fb}. */
  static String segment(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length + 8);
    for (byte b : bytes) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }
}
