package dev.onceonly.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Whom a TLS client of OnceOnly trusts: the certificates of one PEM file (a CA bundle, in
 * Kubernetes a mounted Secret) or, without one, the JVM's trust store (right for a managed broker
 * whose certificate a public CA signed), and whether the server's certificate must also name the
 * host connected to (on unless turned off). The broker connections of the extension and of the
 * relay, and the messaging connector's channels, all trust through one of these, so the same
 * settings give the same answer everywhere ({@code docs/tls.md}).
 */
public final class CaTrust {

  private final Optional<Path> caFile;
  private final boolean verifyHostname;
  private final X509ExtendedTrustManager trustManager;

  private CaTrust(Optional<Path> caFile, boolean verifyHostname, X509ExtendedTrustManager chain) {
    this.caFile = caFile;
    this.verifyHostname = verifyHostname;
    this.trustManager = verifyHostname ? new HostnameVerifyingTrustManager(chain) : chain;
  }

  /**
   * The trust {@code caFile} (a PEM file of one or more certificates; empty: the JVM's trust store)
   * gives; an {@link IllegalArgumentException} naming {@code caKey} and the file when it cannot be
   * read or holds no certificate.
   */
  public static CaTrust of(Optional<String> caFile, boolean verifyHostname, String caKey) {
    Optional<Path> path = caFile.map(String::strip).filter(s -> !s.isEmpty()).map(Path::of);
    try {
      KeyStore store = null;
      if (path.isPresent()) {
        store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int n = 0;
        for (Certificate certificate : read(path.get(), caKey)) {
          store.setCertificateEntry("ca-" + n++, certificate);
        }
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      for (TrustManager manager : factory.getTrustManagers()) {
        if (manager instanceof X509ExtendedTrustManager x509) {
          return new CaTrust(path, verifyHostname, x509);
        }
      }
      throw new IllegalStateException("this JVM has no X.509 trust manager");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          caKey + ": cannot trust the certificates of " + path.orElse(null) + ": " + e, e);
    }
  }

  private static Collection<? extends Certificate> read(Path file, String caKey)
      throws IOException, CertificateException {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(
          caKey + " names " + file + ", which does not exist or cannot be read");
    }
    Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(file)) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (CertificateException e) {
      throw new IllegalArgumentException(
          caKey + " names " + file + ", which is not a PEM file of certificates: " + e.getMessage(),
          e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException(caKey + " names " + file + ", which holds no certificate");
    }
    return certificates;
  }

  /** The trust manager: the chain up to a trusted CA and, if on, the host name. */
  public X509ExtendedTrustManager trustManager() {
    return trustManager;
  }

  /** A new client TLS context that trusts as {@link #trustManager()} does. */
  public SSLContext sslContext() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustManager}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM cannot make a TLS context", e);
    }
  }

  public Optional<Path> caFile() {
    return caFile;
  }

  public boolean verifiesHostname() {
    return verifyHostname;
  }

  /** Whom it trusts, for messages: the CA file or the JVM's trust store. */
  public String describe() {
    return caFile.map(file -> "the CA certificates in " + file).orElse("the JVM's trust store");
  }
}
