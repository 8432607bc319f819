import { resourceModule } from '../resourceModule';
import * as analyzeDocument from './analyzeDocument.operation';
import * as uploadImage from './uploadImage.operation';

export const { operations, description } = resourceModule('file', [
	[
		{
			name: 'Upload Image',
			value: 'uploadImage',
			action: 'Upload an image',
			description:
				'Upload a JPEG, PNG, WebP or GIF image (at most 20 MB) from binary data ' +
				'and get a public URL valid for 72 hours, to use as a reference image for ' +
				'image edits or videos (POST /v1/uploads/images). Returns the URL, file ' +
				'name, content type, size in bytes, upload time and expiry time ' +
				'(expiresAt). Not a generation call, so not billed.',
		},
		uploadImage,
	],
	[
		{
			name: 'Analyze Document',
			value: 'analyzeDocument',
			action: 'Analyze a document',
			description:
				'Ask a text model about PDF or text files of the input item (a summary, the key ' +
				'points, a brief): one chat call per item with the files attached, the answer as text. ' +
				"Billed by its tokens at the model's price on the gateway.",
		},
		analyzeDocument,
	],
]);
