package dev.onceonly.relay.provider;

/**
 * What one provider call came back with: an HTTP status (and its {@code Retry-After} header), or no
 * answer at all ({@code status == 0}) with the reason, e.g. a timeout or a refused connection.
 */
public record ProviderResponse(int status, String retryAfter, String error) {

  public static ProviderResponse answered(int status, String retryAfter, String body) {
    return new ProviderResponse(status, retryAfter, status / 100 == 2 ? null : shorten(body));
  }

  public static ProviderResponse noAnswer(String error) {
    return new ProviderResponse(0, null, shorten(error));
  }

  public boolean hasAnswer() {
    return status > 0;
  }

  /** A one-line description for {@code last_error} and logs. */
  public String describe() {
    if (!hasAnswer()) {
      return error;
    }
    return error == null || error.isBlank() ? "HTTP " + status : "HTTP " + status + ": " + error;
  }

  /** Keeps texts stored in the database short and free of NUL bytes PostgreSQL would refuse. */
  public static String shorten(String text) {
    if (text == null) {
      return null;
    }
    String clean = text.replace('\u0000', ' ').strip();
    return clean.length() <= 500 ? clean : clean.substring(0, 500) + "...";
  }
}
