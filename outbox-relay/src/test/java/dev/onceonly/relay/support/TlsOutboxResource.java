package dev.onceonly.relay.support;

import dev.onceonly.testsupport.tls.TlsPostgresResource;

/**
 * {@link OutboxTestResource}'s database, reached only over TLS with {@code sslmode=verify-full}.
 */
public class TlsOutboxResource extends TlsPostgresResource {

  public TlsOutboxResource() {
    super(new OutboxTestResource());
  }
}
