package io.refstore.web.console;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Controller;

/**
 * A controller that renders console pages. The console's advice applies to the classes
 * that carry it, wherever their package: each page gets the header's user and role, and
 * its errors become the console's error pages instead of the API's problem details. A
 * feature keeps its pages beside its service and its API.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Controller
public @interface ConsoleController {

	/** The bean name, as {@link Controller#value()}. */
	@AliasFor(annotation = Controller.class)
	String value() default "";

}
