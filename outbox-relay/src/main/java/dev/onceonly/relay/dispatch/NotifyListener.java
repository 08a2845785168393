package dev.onceonly.relay.dispatch;

import dev.onceonly.model.OutboxSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;
import org.postgresql.Driver;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * {@code LISTEN outbox} on a dedicated connection outside the pool, waking every subscribed poller
 * when a writer's commit notifies. Reconnects after any failure; polling covers the gap.
 */
final class NotifyListener {

  private static final Logger LOG = Logger.getLogger(NotifyListener.class);
  private static final int WAIT_MILLIS = 1_000;

  private final String url;
  private final Properties properties = new Properties();
  private final List<Poller> subscribers = new CopyOnWriteArrayList<>();
  private final Wakeup retry = new Wakeup();
  private volatile boolean running;
  private volatile Connection connection;

  NotifyListener(String url, String user, String password) {
    this.url = url;
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (password != null) {
      properties.setProperty("password", password);
    }
    properties.setProperty("ApplicationName", "onceonly-outbox-relay-listen");
    properties.setProperty("tcpKeepAlive", "true");
  }

  void subscribe(Poller poller) {
    subscribers.add(poller);
  }

  void unsubscribe(Poller poller) {
    subscribers.remove(poller);
  }

  void start() {
    running = true;
    Thread thread = new Thread(this::run, "outbox-listen");
    thread.setDaemon(true);
    thread.start();
  }

  void stop() {
    running = false;
    retry.signal();
    Connection current = connection;
    if (current != null) {
      try {
        current.close();
      } catch (SQLException e) {
        LOG.debug("closing the LISTEN connection failed", e);
      }
    }
  }

  private void run() {
    while (running) {
      try (Connection c = new Driver().connect(url, properties)) {
        connection = c;
        try (Statement listen = c.createStatement()) {
          listen.execute("LISTEN " + OutboxSchema.NOTIFY_CHANNEL);
        }
        LOG.debugf("listening on channel '%s'", OutboxSchema.NOTIFY_CHANNEL);
        wakeAll(); // rows committed while we were not listening
        PGConnection pg = c.unwrap(PGConnection.class);
        while (running) {
          PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
          if (notifications != null && notifications.length > 0) {
            wakeAll();
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (running) {
          LOG.warnf("LISTEN connection failed (%s); reconnecting in 1 s, polling meanwhile", e);
          try {
            retry.await(1_000);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      } finally {
        connection = null;
      }
    }
  }

  private void wakeAll() {
    subscribers.forEach(Poller::wake);
  }
}
