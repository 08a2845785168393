package dev.onceonly.relay.destination.rabbitmq;

import dev.onceonly.model.BrokerNodes;
import dev.onceonly.tls.CaTrust;
import dev.onceonly.tls.TlsProbe;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * At start, one TLS handshake with a TLS destination's broker: a certificate the relay does not
 * trust, or a port that does not speak TLS, is a setting to fix and stops the start naming the
 * destination's keys; without it every row would fail its attempts with a bare {@code PKIX path
 * building failed} until it is dead. A broker that cannot be reached is only logged: rows wait and
 * are retried, as when it goes away later.
 */
final class RabbitMqTlsCheck {

  private static final Logger LOG = Logger.getLogger(RabbitMqTlsCheck.class);

  private RabbitMqTlsCheck() {}

  static void requireTrusted(RabbitMqSettings settings, CaTrust trust, UnaryOperator<String> key) {
    for (BrokerNodes.Node node : settings.nodes()) {
      if (trusted(node, settings, trust, key)) {
        return;
      }
    }
  }

  /** Whether {@code node} answered TLS with a trusted certificate; false when unreachable. */
  private static boolean trusted(
      BrokerNodes.Node node, RabbitMqSettings settings, CaTrust trust, UnaryOperator<String> key) {
    String where = "RabbitMQ at " + node.host() + ":" + node.port();
    TlsProbe.Result result =
        TlsProbe.handshake(node.host(), node.port(), trust, settings.connectTimeout());
    switch (result.outcome()) {
      case UNTRUSTED ->
          throw new IllegalArgumentException(
              where
                  + " presented a TLS certificate that is not trusted: "
                  + result.detail()
                  + ". The relay trusts "
                  + trust.describe()
                  + (trust.verifiesHostname()
                      ? " and checks that the certificate names " + node.host()
                      : "")
                  + " (check "
                  + key.apply("ca-file")
                  + " and "
                  + key.apply("host")
                  + " or "
                  + key.apply("addresses")
                  + ")");
      case NOT_TLS ->
          throw new IllegalArgumentException(
              where
                  + " does not answer TLS ("
                  + result.detail()
                  + "): with "
                  + key.apply("tls")
                  + ", "
                  + key.apply("port")
                  + " (or the ports in "
                  + key.apply("addresses")
                  + ") must name the broker's AMQPS port (usually 5671)");
      case UNREACHABLE -> {
        LOG.warnf(
            "%s not reachable at start for a TLS check (%s): its rows wait and are retried",
            where, result.detail());
        return false;
      }
      case TRUSTED -> {
        return true;
      }
    }
    return false;
  }
}
