package dev.onceonly.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether a server certificate names a host, as HTTPS clients decide it (RFC 6125): an IP address
 * must be one of its IP subject alternative names, a host name one of its DNS names, where {@code
 * *.example.com} stands for exactly one label. The subject's common name is not looked at (browsers
 * and the JDK gave it up for certificates with alternative names; CAs put every name there).
 */
final class HostNames {

  private static final int DNS = 2;
  private static final int IP = 7;
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private HostNames() {}

  static boolean matches(String host, X509Certificate certificate) {
    String wanted = normalise(host);
    boolean address = isAddress(wanted);
    for (List<?> name : alternativeNames(certificate)) {
      int type = (Integer) name.get(0);
      String value = String.valueOf(name.get(1));
      if (address && type == IP && sameAddress(wanted, value)) {
        return true;
      }
      if (!address && type == DNS && dnsMatches(wanted, normalise(value))) {
        return true;
      }
    }
    return false;
  }

  /** The names a certificate gives, for messages. */
  static List<String> named(X509Certificate certificate) {
    List<String> names = new ArrayList<>();
    for (List<?> name : alternativeNames(certificate)) {
      names.add(String.valueOf(name.get(1)));
    }
    return names;
  }

  private static Collection<List<?>> alternativeNames(X509Certificate certificate) {
    try {
      Collection<List<?>> names = certificate.getSubjectAlternativeNames();
      return names == null ? List.of() : names;
    } catch (CertificateParsingException e) {
      return List.of();
    }
  }

  private static String normalise(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (n.startsWith("[") && n.endsWith("]")) {
      n = n.substring(1, n.length() - 1);
    }
    return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
  }

  private static boolean isAddress(String host) {
    return host.indexOf(':') >= 0 || IPV4.matcher(host).matches();
  }

  /** Both are literals: no name is looked up. */
  private static boolean sameAddress(String host, String named) {
    if (!isAddress(normalise(named))) {
      return false;
    }
    try {
      return InetAddress.getByName(host).equals(InetAddress.getByName(normalise(named)));
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean dnsMatches(String host, String pattern) {
    if (!pattern.startsWith("*.")) {
      return host.equals(pattern);
    }
    String suffix = pattern.substring(1); // ".example.com"
    int firstDot = host.indexOf('.');
    return firstDot > 0 && host.substring(firstDot).equals(suffix) && suffix.indexOf('.', 1) > 0;
  }
}
