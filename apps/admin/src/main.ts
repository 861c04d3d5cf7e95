import { bootstrapApplication } from '@angular/platform-browser';
import { AppComponent } from './app/app.component';
import { appConfig } from './app/app.config';
import { prefetchDiagramLayout } from './app/features/diagram-canvas/early-diagram-layout';
import { startEarlyLayoutWorkers } from './app/features/diagram-canvas/early-layout-worker';

// Before Angular starts: on a diagram page, the server's layout of the diagram is requested and ELK compiles in the
// layout workers (for collapses, or a diagram without a server layout) while the app boots (see the modules). With
// the server's layout on its way the first drawing needs no ELK, so one worker warms up for the first collapse
// instead of two competing with the main thread for the cores; the engine adds the second when the first is busy.
const layoutRequested = prefetchDiagramLayout(location.pathname, location.search);
startEarlyLayoutWorkers(location.pathname, layoutRequested ? 1 : undefined);

bootstrapApplication(AppComponent, appConfig).catch((error: unknown) => console.error(error));
