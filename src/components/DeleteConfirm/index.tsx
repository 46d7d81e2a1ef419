/**
 * The confirm before a delete, as every list asks it: the dialog's red 删除 (dialog--destructive)
 * and 取消, shown while there is something to delete. It closes first and then deletes, so that a
 * second tap cannot delete twice.
 */
import { Dialog } from '@nutui/nutui-react-taro'

export function DeleteConfirm<T>(props: {
  title: string
  /** What is about to be deleted; null hides the dialog. */
  subject: T | null
  message: (subject: T) => string
  onDelete: (subject: T) => void
  onClose: () => void
}) {
  const { title, subject, message, onDelete, onClose } = props
  return (
    <Dialog
      className='dialog--destructive'
      title={title}
      visible={subject !== null}
      content={subject !== null ? message(subject) : ''}
      confirmText='删除'
      cancelText='取消'
      onConfirm={() => {
        onClose()
        if (subject !== null) onDelete(subject)
      }}
      onCancel={onClose}
    />
  )
}
