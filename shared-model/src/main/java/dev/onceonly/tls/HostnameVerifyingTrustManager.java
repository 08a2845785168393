package dev.onceonly.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Checks the chain with the JDK's trust manager, then that the server's certificate names the host
 * connected to ({@link HostNames}). In the trust manager, the check cannot be skipped by any client
 * that uses the context: the RabbitMQ Java client checks host names only when asked ({@code
 * enableHostnameVerification}), and the messaging connector hands it a TLS context it built.
 */
final class HostnameVerifyingTrustManager extends X509ExtendedTrustManager {

  private final X509ExtendedTrustManager chain;

  HostnameVerifyingTrustManager(X509ExtendedTrustManager chain) {
    this.chain = chain;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] certificates, String authType, Socket socket)
      throws CertificateException {
    chain.checkServerTrusted(certificates, authType, socket);
    SSLSession session = socket instanceof SSLSocket ssl ? ssl.getHandshakeSession() : null;
    requireNamed(session == null ? null : session.getPeerHost(), certificates);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] certificates, String authType, SSLEngine engine)
      throws CertificateException {
    chain.checkServerTrusted(certificates, authType, engine);
    requireNamed(engine == null ? null : engine.getPeerHost(), certificates);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] certificates, String authType)
      throws CertificateException {
    chain.checkServerTrusted(certificates, authType);
    requireNamed(null, certificates);
  }

  private static void requireNamed(String host, X509Certificate[] certificates)
      throws CertificateException {
    if (host == null || host.isEmpty()) {
      throw new CertificateException(
          "cannot verify the server's host name: the connection does not say which host it is");
    }
    if (!HostNames.matches(host, certificates[0])) {
      throw new CertificateException(
          "the server's certificate does not name host "
              + host
              + " (it names "
              + HostNames.named(certificates[0])
              + ")");
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] certificates, String authType, Socket socket)
      throws CertificateException {
    chain.checkClientTrusted(certificates, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] certificates, String authType, SSLEngine engine)
      throws CertificateException {
    chain.checkClientTrusted(certificates, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] certificates, String authType)
      throws CertificateException {
    chain.checkClientTrusted(certificates, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return chain.getAcceptedIssuers();
  }
}
