package dev.onceonly.tls;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The PostgreSQL driver's TLS socket factory for {@code sslmode=verify-ca} and {@code verify-full}
 * (both services set it as the datasource's {@code sslfactory}): it trusts the CA certificates of
 * {@code sslrootcert} as the driver's own factory does, and words a refusal so that the start error
 * says what happened, e.g. {@code Unable to obtain connection from database
 * (jdbc:postgresql://db:5432/onceonly?...) ... SSL error: PostgreSQL at db presented a TLS
 * certificate that is not trusted by the CA certificates in /etc/onceonly/db-ca/ca.crt: PKIX path
 * building failed ...} instead of a bare {@code PKIX path building failed}. The driver still checks
 * the host name itself for {@code verify-full}. Every other {@code sslmode}, and a client
 * certificate ({@code sslcert}), goes to the driver's own factory unchanged.
 */
public final class PostgresTrust extends SSLSocketFactory {

  private static final String DRIVER_FACTORY = "org.postgresql.ssl.LibPQFactory";

  private final SSLSocketFactory delegate;

  /** Called by the driver with the connection's properties. */
  public PostgresTrust(Properties info) {
    String mode = info.getProperty("sslmode", "prefer");
    boolean verifies = mode.equals("verify-ca") || mode.equals("verify-full");
    if (!verifies || info.getProperty("sslcert") != null) {
      delegate = driverFactory(info);
      return;
    }
    String root = info.getProperty("sslrootcert");
    if (root == null || root.isBlank()) {
      throw new IllegalArgumentException(
          "sslmode=" + mode + " needs sslrootcert=<PEM file of the database's CA> in the JDBC URL");
    }
    CaTrust trust = CaTrust.of(Optional.of(root), mode.equals("verify-full"), "sslrootcert");
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new Worded(trust)}, null);
      delegate = context.getSocketFactory();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("this JVM cannot make a TLS context", e);
    }
  }

  private static SSLSocketFactory driverFactory(Properties info) {
    try {
      return (SSLSocketFactory)
          Class.forName(DRIVER_FACTORY, true, PostgresTrust.class.getClassLoader())
              .getConstructor(Properties.class)
              .newInstance(info);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "the PostgreSQL driver's " + DRIVER_FACTORY + " is missing", e);
    }
  }

  /** {@link CaTrust}'s trust manager, whose refusals name the server and the CA file. */
  private static final class Worded extends X509ExtendedTrustManager {
    private final CaTrust trust;
    private final X509ExtendedTrustManager checks;

    Worded(CaTrust trust) {
      this.trust = trust;
      this.checks = trust.trustManager();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      try {
        checks.checkServerTrusted(chain, authType, socket);
      } catch (CertificateException e) {
        throw refused(
            socket instanceof SSLSocket ssl && ssl.getHandshakeSession() != null
                ? ssl.getHandshakeSession().getPeerHost()
                : null,
            e);
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      try {
        checks.checkServerTrusted(chain, authType, engine);
      } catch (CertificateException e) {
        throw refused(engine == null ? null : engine.getPeerHost(), e);
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      try {
        checks.checkServerTrusted(chain, authType);
      } catch (CertificateException e) {
        throw refused(null, e);
      }
    }

    private CertificateException refused(String server, CertificateException e) {
      return new CertificateException(
          "PostgreSQL"
              + (server == null ? "" : " at " + server)
              + " presented a TLS certificate that is not trusted by "
              + trust.describe()
              + ": "
              + e.getMessage(),
          e);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      checks.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      checks.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      checks.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return checks.getAcceptedIssuers();
    }
  }

  @Override
  public String[] getDefaultCipherSuites() {
    return delegate.getDefaultCipherSuites();
  }

  @Override
  public String[] getSupportedCipherSuites() {
    return delegate.getSupportedCipherSuites();
  }

  @Override
  public Socket createSocket(Socket socket, String host, int port, boolean autoClose)
      throws IOException {
    return delegate.createSocket(socket, host, port, autoClose);
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return delegate.createSocket(host, port);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress local, int localPort)
      throws IOException {
    return delegate.createSocket(host, port, local, localPort);
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return delegate.createSocket(host, port);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort)
      throws IOException {
    return delegate.createSocket(address, port, local, localPort);
  }
}
