package dev.onceonly.tls;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.time.Duration;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

/**
 * One TLS handshake with a server, to tell at start, in words, why a TLS client would fail: a
 * client library that cannot trust a server usually retries for ever or reports a bare {@code PKIX
 * path building failed} deep in a stack trace. The probe sends nothing after the handshake.
 */
public final class TlsProbe {

  /** What the handshake found. */
  public enum Outcome {
    /** The server's certificate is trusted (and names the host, if that is checked). */
    TRUSTED,
    /** Nothing accepted a connection, or it closed or timed out before TLS began. */
    UNREACHABLE,
    /** The server speaks TLS, and its certificate is not trusted or does not name the host. */
    UNTRUSTED,
    /** Something listens but did not answer as a TLS server. */
    NOT_TLS
  }

  /** The outcome and, unless trusted, the reason the JDK gave. */
  public record Result(Outcome outcome, String detail) {}

  /** What a protocol sends in clear before its TLS handshake (PostgreSQL's SSLRequest). */
  @FunctionalInterface
  public interface Preamble {
    /**
     * Returns normally when the server agreed to TLS; throws {@link SSLException} if it refused.
     */
    void run(Socket socket) throws IOException;
  }

  private TlsProbe() {}

  /** A handshake with {@code host:port} trusting as {@code trust} does. */
  public static Result handshake(String host, int port, CaTrust trust, Duration timeout) {
    return handshake(host, port, trust, timeout, socket -> {});
  }

  /** The same, with {@code preamble} run on the plain connection first. */
  public static Result handshake(
      String host, int port, CaTrust trust, Duration timeout, Preamble preamble) {
    int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    Socket plain = new Socket();
    try {
      try {
        plain.connect(new InetSocketAddress(host, port), millis);
        plain.setSoTimeout(millis);
        preamble.run(plain);
      } catch (SSLException e) {
        return new Result(Outcome.NOT_TLS, reason(e));
      } catch (IOException e) {
        return new Result(Outcome.UNREACHABLE, reason(e));
      }
      try (SSLSocket tls =
          (SSLSocket) trust.sslContext().getSocketFactory().createSocket(plain, host, port, true)) {
        tls.setSoTimeout(millis);
        tls.startHandshake();
        return new Result(Outcome.TRUSTED, "");
      } catch (SSLHandshakeException e) {
        return new Result(untrusted(e) ? Outcome.UNTRUSTED : Outcome.NOT_TLS, reason(e));
      } catch (SSLException e) {
        return new Result(Outcome.NOT_TLS, reason(e));
      } catch (IOException e) {
        return new Result(Outcome.NOT_TLS, "no TLS answer: " + reason(e));
      }
    } finally {
      try {
        plain.close();
      } catch (IOException ignored) {
        // nothing was sent on it that needs a clean close
      }
    }
  }

  private static boolean untrusted(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CertificateException) {
        return true;
      }
    }
    return false;
  }

  /** The innermost message: the JDK wraps the certificate's reason several times. */
  private static String reason(Throwable e) {
    String text = String.valueOf(e.getMessage());
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        text = t.getMessage();
      }
    }
    return text;
  }
}
