package dev.onceonly.relay.config;

import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The name this relay writes into {@code lease_owner}: configured, or host name + random suffix.
 */
@ApplicationScoped
public class RelayIdentity {

  private final String id;

  public RelayIdentity(RelayConfig config) {
    this.id = config.id().filter(s -> !s.isBlank()).orElseGet(RelayIdentity::generated);
  }

  public String id() {
    return id;
  }

  static String generated() {
    byte[] suffix = new byte[3];
    ThreadLocalRandom.current().nextBytes(suffix);
    return hostName() + "-" + HexFormat.of().formatHex(suffix);
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "relay";
    }
  }
}
