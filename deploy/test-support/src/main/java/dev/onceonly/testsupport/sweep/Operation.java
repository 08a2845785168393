package dev.onceonly.testsupport.sweep;

import java.util.List;

/**
 * One operation of a service's OpenAPI document: what a malformed-input sweep needs to know.
 *
 * @param path the template, e.g. {@code /outbox/{id}/retry}
 * @param parameters its path and query parameters
 * @param bodyTextFields the text fields of its JSON request body; null when it takes no body
 */
public record Operation(
    String method, String path, List<Parameter> parameters, List<String> bodyTextFields) {

  /** A path or query parameter with its declared type ({@code string}, {@code integer}, ...). */
  public record Parameter(String name, String in, String type, String format) {

    public boolean inPath() {
      return "path".equals(in);
    }

    public boolean inQuery() {
      return "query".equals(in);
    }

    public boolean numeric() {
      return "integer".equals(type) || "number".equals(type);
    }

    public boolean timestamp() {
      return "date-time".equals(format);
    }
  }

  /** {@code GET /outbox/{id}}. */
  public String key() {
    return method + " " + path;
  }

  public boolean takesBody() {
    return bodyTextFields != null;
  }
}
