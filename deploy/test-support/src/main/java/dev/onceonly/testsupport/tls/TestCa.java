package dev.onceonly.testsupport.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made by a test, valid for a day: it issues server certificates for the
 * names a test asks for, and writes its own certificate as the PEM file a service is given as its
 * CA (as Kubernetes mounts one from a Secret). Nothing leaves the test's JVM but that file.
 */
public final class TestCa {

  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private final KeyPair keys;
  private final X509Certificate certificate;

  private TestCa(KeyPair keys, X509Certificate certificate) {
    this.keys = keys;
    this.certificate = certificate;
  }

  /** A new CA named {@code name}. */
  public static TestCa create(String name) {
    try {
      KeyPair keys = keyPair();
      X500Name subject = new X500Name("CN=" + name);
      X509v3CertificateBuilder builder = builder(subject, subject, keys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return new TestCa(keys, sign(builder, keys));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot make a test CA", e);
    }
  }

  /** A server certificate for {@code names} (host names, or IP addresses), signed by this CA. */
  public Server issue(String... names) {
    try {
      KeyPair serverKeys = keyPair();
      X509v3CertificateBuilder builder =
          builder(
              new X500Name(certificate.getSubjectX500Principal().getName()),
              new X500Name("CN=" + names[0]),
              serverKeys);
      List<GeneralName> alternative = new ArrayList<>();
      for (String name : names) {
        boolean address = name.matches("[0-9.]+") || name.contains(":");
        alternative.add(
            new GeneralName(address ? GeneralName.iPAddress : GeneralName.dNSName, name));
      }
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(alternative.toArray(GeneralName[]::new)));
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      return new Server(serverKeys, sign(builder, keys), certificate);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot issue a test server certificate", e);
    }
  }

  /** Writes this CA's certificate as a PEM file in {@code dir}; its path. */
  public Path writePem(Path dir, String fileName) {
    try {
      Path file = dir.resolve(fileName);
      Files.writeString(file, pem(certificate));
      return file;
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the test CA", e);
    }
  }

  /** A server's key and certificate chain. */
  public static final class Server {
    private final KeyPair keys;
    private final X509Certificate certificate;
    private final X509Certificate issuer;

    private Server(KeyPair keys, X509Certificate certificate, X509Certificate issuer) {
      this.keys = keys;
      this.certificate = certificate;
      this.issuer = issuer;
    }

    /** A server TLS context presenting this certificate and its CA's. */
    public SSLContext sslContext() {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] password = "test".toCharArray();
        store.setKeyEntry(
            "server", keys.getPrivate(), password, new X509Certificate[] {certificate, issuer});
        KeyManagerFactory factory =
            KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalStateException("cannot make the test server's TLS context", e);
      }
    }
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static X509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, KeyPair subjectKeys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(1))),
        subject,
        subjectKeys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws GeneralSecurityException {
    try {
      ContentSigner contentSigner =
          new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
      return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
    } catch (org.bouncycastle.operator.OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static String pem(X509Certificate certificate) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(certificate);
    }
    return out.toString();
  }
}
