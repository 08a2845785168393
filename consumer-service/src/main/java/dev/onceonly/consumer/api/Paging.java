package dev.onceonly.consumer.api;

/** Bounds of list endpoints: checked, with a message that says the allowed range. */
final class Paging {

  static final int MAX_SIZE = 500;

  private Paging() {}

  static int size(Integer size, int defaultSize) {
    int value = size == null ? defaultSize : size;
    if (value < 1 || value > MAX_SIZE) {
      throw ProblemException.badRequest(
          "size must be between 1 and " + MAX_SIZE + ", was " + value);
    }
    return value;
  }

  static int page(Integer page) {
    int value = page == null ? 0 : page;
    if (value < 0) {
      throw ProblemException.badRequest("page must be 0 or more, was " + value);
    }
    return value;
  }
}
