package dev.onceonly.k8s;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** An IPv4 or IPv6 CIDR block as NetworkPolicy's ipBlock takes it. */
record Cidr(BigInteger network, int prefix, int bits, String text) {

  /** The block, or null when {@code text} is no CIDR. */
  static Cidr parse(String text) {
    String[] parts = text.split("/");
    if (parts.length != 2 || !parts[0].matches("[0-9a-fA-F:.]+") || !parts[1].matches("\\d{1,3}")) {
      return null;
    }
    try {
      byte[] address = InetAddress.getByName(parts[0]).getAddress();
      int bits = address.length * 8;
      int prefix = Integer.parseInt(parts[1]);
      if (prefix > bits || (parts[0].contains(":") != (bits == 128))) {
        return null;
      }
      return new Cidr(new BigInteger(1, address), prefix, bits, text);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  boolean contains(Cidr other) {
    return other.bits == bits
        && other.prefix >= prefix
        && masked(other.network).equals(masked(network));
  }

  private BigInteger masked(BigInteger address) {
    return address.shiftRight(bits - prefix);
  }

  @Override
  public String toString() {
    return text;
  }
}
