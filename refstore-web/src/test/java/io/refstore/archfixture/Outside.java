package io.refstore.archfixture;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test-only classes outside the application's package (no context scans them), for
 * {@code ConsoleArchitectureTest}'s check of its own rule.
 */
public final class Outside {

	private Outside() {
	}

	/** A page controller where the console's advice does not reach. */
	@Controller
	public static final class Page {

	}

	/** A REST controller, which may live anywhere. */
	@RestController
	public static final class Api {

	}

}
