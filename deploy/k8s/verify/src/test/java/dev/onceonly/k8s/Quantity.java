package dev.onceonly.k8s;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code 500m}, {@code 2}, {@code 384Mi}, {@code 1e3}) as a number.
 */
final class Quantity {

  private static final Pattern QUANTITY =
      Pattern.compile(
          "([+-]?\\d+(?:\\.\\d*)?|[+-]?\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("m", new BigDecimal("0.001")),
          Map.entry("k", BigDecimal.TEN.pow(3)),
          Map.entry("M", BigDecimal.TEN.pow(6)),
          Map.entry("G", BigDecimal.TEN.pow(9)),
          Map.entry("T", BigDecimal.TEN.pow(12)),
          Map.entry("P", BigDecimal.TEN.pow(15)),
          Map.entry("E", BigDecimal.TEN.pow(18)),
          Map.entry("Ki", BigDecimal.valueOf(2).pow(10)),
          Map.entry("Mi", BigDecimal.valueOf(2).pow(20)),
          Map.entry("Gi", BigDecimal.valueOf(2).pow(30)),
          Map.entry("Ti", BigDecimal.valueOf(2).pow(40)),
          Map.entry("Pi", BigDecimal.valueOf(2).pow(50)),
          Map.entry("Ei", BigDecimal.valueOf(2).pow(60)));

  private Quantity() {}

  /** The quantity's value; fails on text the API server would refuse. */
  static BigDecimal parse(String text) {
    Matcher m = QUANTITY.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a quantity: " + text);
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
    }
    return number.multiply(SUFFIXES.get(suffix));
  }
}
