package dev.onceonly.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * SHA-256 over a canonical form of a JSON payload: object keys sorted, no insignificant whitespace,
 * numbers without trailing zeros. Two bodies that differ only in field order, spacing or {@code
 * 100} vs {@code 100.0} have the same fingerprint; any change of a value changes it.
 */
public final class PayloadFingerprint {

  /** Beyond this many decimal places (or trailing zeros) a number is written in E-notation. */
  private static final int MAX_PLAIN_SCALE = 1000;

  private PayloadFingerprint() {}

  /** Lower-case hex SHA-256 of {@link #canonical(JsonNode)}. */
  public static String sha256(JsonNode payload) {
    return sha256Hex(canonical(payload));
  }

  /** The canonical text the fingerprint is taken over. */
  public static String canonical(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("null");
    } else if (node.isObject()) {
      List<String> names = new ArrayList<>();
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        names.add(it.next());
      }
      names.sort(String::compareTo);
      out.append('{');
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        writeString(names.get(i), out);
        out.append(':');
        write(node.get(names.get(i)), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else if (node.isNumber()) {
      writeNumber(node, out);
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else {
      writeString(node.asText(), out);
    }
  }

  /**
   * A number by its value: {@code 100}, {@code 100.0} and {@code 1E2} all write {@code 100}. Absurd
   * exponents stay in E-notation so that {@code 1e999999999} cannot expand to a gigabyte of zeros;
   * an overflowed double (only from a caller's own parser) has no exact value left and writes as
   * parsed.
   */
  private static void writeNumber(JsonNode node, StringBuilder out) {
    if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
      out.append(node.asText());
      return;
    }
    BigDecimal value = node.decimalValue().stripTrailingZeros();
    if (value.signum() == 0) {
      out.append('0');
    } else if (Math.abs(value.scale()) <= MAX_PLAIN_SCALE) {
      out.append(value.toPlainString());
    } else {
      out.append(value);
    }
  }

  private static void writeString(String value, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
