package io.refstore.web.archfixture.one;

import io.refstore.web.archfixture.two.Two;

/** Half of a package cycle that the package-cycle rule must find. */
public final class One {

	Two next;

}
