package dev.onceonly.testsupport.tls;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A TLS-only listener on 127.0.0.1 in front of a plain service: from a client's point of view a
 * real TLS server presenting the test's certificate, that hands each connection's decrypted bytes
 * to the service (RabbitMQ or PostgreSQL of this machine or a container). A client that does not
 * complete the handshake gets nothing through. In {@link Protocol#POSTGRESQL} mode it answers the
 * 8-byte SSLRequest with {@code 'S'} before the handshake, as a PostgreSQL server with {@code
 * ssl=on} does, and refuses every connection that does not ask for TLS.
 */
public final class TlsProxy implements AutoCloseable {

  /** How a client starts TLS. */
  public enum Protocol {
    /** The handshake begins at once (AMQPS). */
    DIRECT,
    /** PostgreSQL's SSLRequest first. */
    POSTGRESQL
  }

  private static final int SSL_REQUEST = 80877103;
  private static final int GSSENC_REQUEST = 80877104;

  private final ServerSocket listener;
  private final SSLContext server;
  private final Protocol protocol;
  private final String targetHost;
  private final int targetPort;
  private final AtomicInteger handshakes = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  private TlsProxy(
      ServerSocket listener, SSLContext server, Protocol protocol, String host, int port) {
    this.listener = listener;
    this.server = server;
    this.protocol = protocol;
    this.targetHost = host;
    this.targetPort = port;
  }

  /** Listens on an ephemeral port of 127.0.0.1 and forwards to {@code targetHost:targetPort}. */
  public static TlsProxy start(
      TestCa.Server certificate, Protocol protocol, String targetHost, int targetPort) {
    try {
      ServerSocket listener = new ServerSocket();
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      TlsProxy proxy =
          new TlsProxy(listener, certificate.sslContext(), protocol, targetHost, targetPort);
      daemon("tls-proxy-accept-" + listener.getLocalPort(), proxy::accept).start();
      return proxy;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start a TLS listener", e);
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Connections that completed a TLS handshake. */
  public int handshakes() {
    return handshakes.get();
  }

  /** Connections closed without a completed handshake (not TLS, or a client that distrusted us). */
  public int refused() {
    return refused.get();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        open.add(client);
        daemon("tls-proxy-" + client.getPort(), () -> serve(client)).start();
      } catch (IOException e) {
        if (!closed) {
          refused.incrementAndGet();
        }
      }
    }
  }

  private void serve(Socket client) {
    SSLSocket tls;
    try {
      client.setSoTimeout(10_000);
      if (protocol == Protocol.POSTGRESQL && !agreeToTls(client)) {
        refused.incrementAndGet();
        client.close();
        return;
      }
      tls =
          (SSLSocket)
              server
                  .getSocketFactory()
                  .createSocket(
                      client, client.getInetAddress().getHostAddress(), client.getPort(), true);
      tls.setUseClientMode(false);
      tls.startHandshake();
      tls.setSoTimeout(0);
      handshakes.incrementAndGet();
    } catch (IOException e) {
      refused.incrementAndGet();
      closeQuietly(client);
      return;
    }
    try {
      Socket upstream = new Socket(targetHost, targetPort);
      open.add(upstream);
      daemon("tls-proxy-up-" + client.getPort(), () -> pump(tls, upstream)).start();
      pump(upstream, tls);
    } catch (IOException e) {
      closeQuietly(tls);
    }
  }

  /** Reads the start packets: 'N' to a GSS encryption request, 'S' to the SSLRequest. */
  private static boolean agreeToTls(Socket client) throws IOException {
    DataInputStream in = new DataInputStream(client.getInputStream());
    OutputStream out = client.getOutputStream();
    while (true) {
      int length = in.readInt();
      int code = in.readInt();
      if (length != 8) {
        return false; // a StartupMessage in clear: this server is TLS-only
      }
      if (code == SSL_REQUEST) {
        out.write('S');
        out.flush();
        return true;
      }
      if (code != GSSENC_REQUEST) {
        return false;
      }
      out.write('N');
      out.flush();
    }
  }

  private static void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the other side closed, or the proxy did: the peer is closed below
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static Thread daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException | RuntimeException ignored) {
      // already closed
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing
    }
    for (Socket socket : open) {
      closeQuietly(socket);
    }
  }
}
