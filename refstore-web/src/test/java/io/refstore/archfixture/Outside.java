package io.refstore.archfixture;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RestController;

import io.refstore.web.console.ConsoleController;

/**
 * Test-only classes outside the application's package (no context scans them), for
 * {@code ConsoleArchitectureTest}'s check of its own rule.
 */
public final class Outside {

	private Outside() {
	}

	/** A page controller the console's advice does not reach: no marker. */
	@Controller
	public static final class Page {

	}

	/** A page controller with the marker, which may live in any package. */
	@ConsoleController
	public static final class ConsolePage {

	}

	/** A REST controller, which may live anywhere. */
	@RestController
	public static final class Api {

	}

}
