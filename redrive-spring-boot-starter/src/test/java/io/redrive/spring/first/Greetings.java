package io.redrive.spring.first;

import io.redrive.spring.RedriveHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** The first application's handler (top level: Spring Boot's test filter skips nested ones). */
@Component
public class Greetings {
  static final List<String> GREETED = new CopyOnWriteArrayList<>();

  @RedriveHandler(queue = "greetings", type = "hello")
  void hello(String payload) {
    GREETED.add(payload);
  }
}
