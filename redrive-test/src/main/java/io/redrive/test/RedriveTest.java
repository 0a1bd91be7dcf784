package io.redrive.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives each test of the class a {@link TestRedrive} parameter: a real engine on a temporary SQLite
 * file with a {@link TestClock}, emptied before each test. For the application's PostgreSQL, or to
 * configure the engine, register {@link RedriveExtension} with {@code @RegisterExtension} instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedriveExtension.class)
public @interface RedriveTest {}
