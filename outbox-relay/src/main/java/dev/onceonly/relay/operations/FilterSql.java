package dev.onceonly.relay.operations;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code WHERE} fragments of an {@link OutboxFilter} over {@code outbox.outbox o}, with their
 * parameters in order. Only constant fragments are appended: values are always bound.
 */
final class FilterSql {

  static final String BY_STATUS = " AND o.status = ?";
  static final String BY_DESTINATION = " AND o.kind = ?";
  static final String BY_ORDERING_KEY = " AND o.ordering_key = ?";
  static final String BY_IDEMPOTENCY_KEY = " AND o.idempotency_key = ?";
  static final String CREATED_FROM = " AND o.created_at >= ?";
  static final String CREATED_BEFORE = " AND o.created_at < ?";

  private final StringBuilder where = new StringBuilder();
  private final List<Object> parameters = new ArrayList<>();

  FilterSql(OutboxFilter filter) {
    add(BY_STATUS, filter.status() == null ? null : filter.status().value());
    add(BY_DESTINATION, filter.destination());
    add(BY_ORDERING_KEY, filter.orderingKey());
    add(BY_IDEMPOTENCY_KEY, filter.idempotencyKey());
    add(CREATED_FROM, timestamp(filter.createdAfter()));
    add(CREATED_BEFORE, timestamp(filter.createdBefore()));
  }

  /** Appends a further constant fragment with its one parameter, unless the value is null. */
  FilterSql add(String fragment, Object value) {
    if (value != null) {
      where.append(fragment);
      parameters.add(value);
    }
    return this;
  }

  /** The fragments, to go where the statement has {@code %s}. */
  String where() {
    return where.toString();
  }

  /** Binds the parameters from {@code index}; returns the next free index. */
  int bind(PreparedStatement statement, int index) throws SQLException {
    int i = index;
    for (Object parameter : parameters) {
      statement.setObject(i++, parameter);
    }
    return i;
  }

  private static Object timestamp(Instant instant) {
    return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
  }
}
